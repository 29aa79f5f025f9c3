"""Macau baccarat (Punto Banco), docs/rules.md §1 and §4: rules as data, the coup state machine, replay, roads."""
