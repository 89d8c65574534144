"""Rendering: games drawn for people.

`pictures` draws a view as SVG; `narrate` turns events and changes into sentences a seat may
read; `replay_page` writes one self-contained web page of a replayed game, from the HTML,
CSS and JavaScript shipped beside it as package data. No module is imported here.
"""
