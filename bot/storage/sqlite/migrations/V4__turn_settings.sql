-- V4: two per-player settings for the in-game helpers: a ping when it becomes your turn
-- (on by default) and playing forced cards automatically (off by default).
ALTER TABLE user_settings ADD COLUMN turn_ping INTEGER NOT NULL DEFAULT 1
    CHECK (turn_ping IN (0, 1));
ALTER TABLE user_settings ADD COLUMN auto_forced INTEGER NOT NULL DEFAULT 0
    CHECK (auto_forced IN (0, 1));
