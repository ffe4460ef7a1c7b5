"""Players: identity (the person number), personal data, memberships."""
