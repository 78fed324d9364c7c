"""Authentication filters: /rest/security/authfilters."""
