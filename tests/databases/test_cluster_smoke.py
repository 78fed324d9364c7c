def test_postgis_is_there(postgresql):
    row = postgresql.execute("SELECT postgis_lib_version()").fetchone()
    assert row[0].startswith("3.")
