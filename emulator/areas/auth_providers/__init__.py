"""Authentication providers: /rest/security/authproviders."""
