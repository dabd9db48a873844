"""The Discord UI layer: component ids and items, replies, panels, publishing.

It may import the services, the Discord-free core, storage, text, render and the engine;
never the features (bot/features) or the composition root (bot/app/client.py)."""
