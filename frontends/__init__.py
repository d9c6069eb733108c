"""Front ends that people and other programs play through: the browser table
(:mod:`frontends.web`), the Botzone bot (:mod:`frontends.botzone`) and the commands that
start them (:mod:`frontends.commands`)."""
