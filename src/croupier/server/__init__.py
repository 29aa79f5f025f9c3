"""The live table service: ``croupier serve``. The only package of croupier that does I/O."""
