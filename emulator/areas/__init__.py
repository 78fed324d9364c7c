"""The areas: one folder each (model, codec, routes, scenario section)."""
