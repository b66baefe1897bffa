"""The HTTP routes (FastAPI) of the Serve ingress: ``api_router`` maps requests to the services and errors to statuses."""
