"""Independent references the tests hold budgetcore to: each is written from a shared
source document (named in its module), imports nothing from budgetcore, and shares no
code with it."""
