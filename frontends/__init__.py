"""Front ends that people and other programs play through: the ``shengji`` command line
(:mod:`.cli`), the JSON decision protocol (:mod:`.protocol`) and its HTTP server
(:mod:`.serving`), the browser table (:mod:`.web`), the Botzone bot (:mod:`.botzone`) and
the commands that start them (:mod:`.commands`). The top layer: rules → env → agents →
train → front ends."""
