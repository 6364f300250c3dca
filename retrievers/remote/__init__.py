"""Remote parts over HTTP: the JSON transport, the search-service backend and the chat client."""
