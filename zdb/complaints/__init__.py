"""Complaints about an evaluation or a person's record (Reklamation), their routing, their
deadline per published list edition, and the provisional marks of evaluations still open to one."""
