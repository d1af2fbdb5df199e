"""The outbox: every result on disk (sqlite3, fsync'd) until the broker acknowledges it."""

import sqlite3
import uuid


class Journal:
    """An append-only outbox of MQTT messages, in the order they were made.

    A row is written (and synced to disk) before its message is first published,
    and marked acknowledged when the broker's PUBCOMP arrives; on a restart only
    unacknowledged rows are sent again. Each row's message id is the journal's
    own id and the row's sequence number, so a resent message keeps its id.
    Use from one thread at a time.
    """

    def __init__(self, path, keep_acked=10000):
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript("""
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS outbox (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                topic TEXT NOT NULL, payload BLOB NOT NULL, retain INTEGER NOT NULL,
                acked INTEGER NOT NULL DEFAULT 0);
            CREATE INDEX IF NOT EXISTS outbox_unacked ON outbox (acked, seq);
        """)
        row = self.db.execute("SELECT value FROM meta WHERE key='id'").fetchone()
        if row is None:
            self.id = uuid.uuid4().hex[:12]
            self.db.execute("INSERT INTO meta VALUES ('id', ?)", (self.id,))
        else:
            self.id = row[0]
        self.keep_acked = keep_acked

    def message_id(self, seq):
        """The id carried in the payload of row `seq`."""
        return f"{self.id}-{seq}"

    def commit(self, new, acked):
        """Appends `new` [(topic, body, retain)] and marks the rows `acked`, in one synced transaction."""
        if not new and not acked:
            return
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("INSERT INTO outbox (topic, payload, retain) VALUES (?, ?, ?)", new)
            self.db.executemany("UPDATE outbox SET acked=1 WHERE seq=?", [(s,) for s in acked])

    def unacked_after(self, seq, limit):
        """Up to `limit` unacknowledged rows after `seq`, oldest first: (seq, topic, body, retain)."""
        return self.db.execute(
            "SELECT seq, topic, payload, retain FROM outbox WHERE acked=0 AND seq>? ORDER BY seq LIMIT ?",
            (seq, limit)).fetchall()

    def pending(self):
        """How many rows wait for an acknowledgement."""
        return self.db.execute("SELECT count(*) FROM outbox WHERE acked=0").fetchone()[0]

    def prune(self):
        """Forgets acknowledged rows beyond the newest `keep_acked`."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "DELETE FROM outbox WHERE acked=1 AND seq <= "
                "(SELECT seq FROM outbox WHERE acked=1 ORDER BY seq DESC LIMIT 1 OFFSET ?)",
                (self.keep_acked,))

    def close(self):
        """Closes the database; everything committed is on disk."""
        self.db.close()
