"""API tokens, the roles they carry, and the audit log of every write made with them."""
