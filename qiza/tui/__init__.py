"""Terminal play (``qiza play``): :mod:`qiza.tui.app` (the command), :mod:`qiza.tui.session`
(turns, commands, saving), :mod:`qiza.tui.render` (drawing with ``rich``) and
:mod:`qiza.tui.terminal` (input and output)."""
