"""Wire formats shared by every area: hardened XML, deterministic JSON, negotiation, errors."""
