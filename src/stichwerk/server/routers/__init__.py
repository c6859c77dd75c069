"""The HTTP and websocket routes, one module per resource, each a function returning its
``APIRouter``; ``server/app.py`` includes every one (``ROUTERS``'s order is the app's).

A router module imports downward only: ``deps`` (the services, the session's user),
``schemas`` (the bodies), the services' own modules and the packages below the server; never
``app`` and never another router. Each maps the errors its routes share in one place.
"""
