from hypothesis import given, settings

from geoserver_emulator_pytest import strategies


@settings(max_examples=20, deadline=None)
@given(rules=strategies.access_rules("layers"), seed=strategies.seed_requests())
def test_payloads_are_json(rules, seed):
    assert all(key.count(".") == 2 for key in rules)
    assert seed["seedRequest"]["zoomStart"] <= seed["seedRequest"]["zoomStop"]
    assert strategies.seed_request_xml(seed).startswith("<seedRequest>")
