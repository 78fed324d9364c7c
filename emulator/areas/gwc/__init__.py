"""GeoWebCache's configuration REST (gridsets, blob stores, disk quota, global, mass
truncation, bounds, reload); its state lives in the seeding store."""
