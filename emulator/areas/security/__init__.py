"""Security settings: keystore password, catalog mode, access rules."""
