"""The catalog: workspaces, namespaces, stores, resources, layers, layer groups."""
