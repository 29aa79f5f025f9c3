"""The live table service (issue 6): ``croupier serve``. The only package of croupier that does I/O."""
