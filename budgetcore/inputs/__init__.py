"""How values arrive: exact numbers, strict JSON and JSON Lines, text limits."""
