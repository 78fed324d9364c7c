"""Users, groups and roles: the default user/group service and the active role service."""
