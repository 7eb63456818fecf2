"""Board images: a pure Pillow renderer of game states.

Takes engine state and returns image bytes (PNG). It does not import ``discord``,
so it can be used and tested without a bot.

- :func:`render.turn_view.render_turn_view` - the picture of the turn message, drawn for
  a phone (800 px for a ~400 px display): the mover's path with names, owners, buildings
  and what is due, and the standings; :func:`render.turn_view.describe_turn_view` is its
  alt text.
- :func:`render.board.render_board` - the whole board (one click away, and at the end).
- :func:`render.deed.render_deed` - the title deed of one lot (``/monopoly property``).
- :func:`render.compact.render_compact` - a small ownership map for lobbies and summaries.
- :func:`render.cards.render_table`, :func:`render.cards.render_hand`,
  :func:`render.cards.render_layout`, :func:`render.cards.render_round_result`,
  :func:`render.cards.render_card` - MONOPOLY Das Kartenspiel: the table, a hand, a lay-out,
  one card (colours and labels in ``data/cards.json``).
- :mod:`render.bench` - timing of the board image (``monopoly-bot bench --render``).

Fonts (DejaVu, with its licence), colours (``data/palettes.json``) and labels
(``data/labels.json``, German and English) ship inside the package.
"""
