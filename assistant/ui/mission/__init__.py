"""New missions and cards on the screen (issue 66): `pages` and `builder`, a mission set up from the card library;
`card_pages` and `card_editor`, a card typed or changed; `paged`, the pages in turn they share; `carry`, a campaign
mission's end onto the sheet. It imports the shared drawing and forms, never `ui/app.py`."""
