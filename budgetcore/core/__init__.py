"""The formulas of the contract (docs/spec.md sections 3 to 8): values in, values out."""
