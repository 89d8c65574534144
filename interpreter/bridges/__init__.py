"""The bridges: gdl games offered to the game-AI libraries researchers already use.

`openspiel` registers a `pyspiel` game named "gdl" (any rule file, by its `file` parameter)
so that OpenSpiel's bots and algorithms play it; `pettingzoo` is a PettingZoo AEC
environment whose agents are the seats. Both are optional extras (`pip install -e
'.[openspiel]'`, `'.[pettingzoo]'` in the checkout): importing one needs its library, nothing else of
gdl does. `position` is what they share: integer action ids and a seat's observation, made
from that seat's view only. Like `play/`, the bridges stand on top of the runtime and use
it through the public API and `introspect`; nothing imports them.

No module is imported here, so importing one bridge does not need the other's library.
"""
