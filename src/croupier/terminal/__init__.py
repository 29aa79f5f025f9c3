"""The terminal: play at a table (:mod:`~croupier.terminal.blackjack_play`,
:mod:`~croupier.terminal.baccarat_play`), the rich tables of the analyses and roads
(:mod:`~croupier.terminal.render`) and the strategy chart's files (:mod:`~croupier.terminal.chart_files`).

The only package besides the server and the CLI that reads input, prints, sleeps or writes files; the
engines (:mod:`croupier.blackjack`, :mod:`croupier.baccarat`) and the analyses (:mod:`croupier.math`)
do none of these.
"""
