"""What an organiser owes for the evaluation of his tournaments: fee schedules, the fees of each
evaluated tournament, and invoices."""
