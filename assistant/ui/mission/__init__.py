"""A new mission set up on the screen from the card library (`pages`: its forms and the scenario they make, pure;
`builder`: the screen). It imports the shared drawing and forms, never `ui/app.py`."""
