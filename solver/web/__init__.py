"""The local web app (`durak serve`): see, set up, solve and play positions in a browser."""
