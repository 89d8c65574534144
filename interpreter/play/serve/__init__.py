"""`gdl serve`: a game played in browsers (docs/serve.md).

`session` holds one game and what each viewer (a seat, or the spectator) has been told,
with nothing of the web in it; `app` serves it to browsers with Starlette over websockets
(the optional extra `gdl[serve]`), each browser receiving only its own seat's view. The
page's HTML, style and script are package data beside them (`table.html`, `table.css`,
`table.js`).
"""
