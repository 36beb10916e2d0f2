-- A database as the server of 2026-11-29 made it (Base.metadata.create_all on SQLite, no
-- alembic_version table), holding one running Cage match between two people, two moves in.
-- Seat tokens: 'token-zero' and 'token-one'.
CREATE TABLE matches (
	id VARCHAR(32) NOT NULL, 
	game TEXT NOT NULL, 
	seed BIGINT NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	version INTEGER NOT NULL, 
	result JSON, 
	created DATETIME NOT NULL, 
	updated DATETIME NOT NULL, 
	PRIMARY KEY (id)
);
CREATE INDEX ix_matches_status ON matches (status);
CREATE TABLE seats (
	id INTEGER NOT NULL, 
	match_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	agent VARCHAR(32), 
	name VARCHAR(64), 
	token_hash VARCHAR(64), 
	PRIMARY KEY (id), 
	UNIQUE (match_id, seat), 
	FOREIGN KEY(match_id) REFERENCES matches (id)
);
CREATE INDEX ix_seats_match_id ON seats (match_id);
CREATE TABLE moves (
	id INTEGER NOT NULL, 
	match_id VARCHAR(32) NOT NULL, 
	ply INTEGER NOT NULL, 
	player INTEGER NOT NULL, 
	action INTEGER NOT NULL, 
	notation TEXT NOT NULL, 
	created DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (match_id, ply), 
	FOREIGN KEY(match_id) REFERENCES matches (id)
);
CREATE INDEX ix_moves_match_id ON moves (match_id);
INSERT INTO matches VALUES ('00000000000000ab', 'cage', 7, 'running', 2, NULL, '2026-11-29 10:00:00.000000', '2026-11-29 10:05:00.000000');
INSERT INTO seats VALUES (1, '00000000000000ab', 0, 'human', NULL, 'ann', 'a904401b4e5ef437679869b5a3027761af0ae43062715f850afff13eddb6f0ba');
INSERT INTO seats VALUES (2, '00000000000000ab', 1, 'human', NULL, 'bob', '75c5c10f256c75b650c6ffc2e83c6588af02766efd2de28f4de34547006e8d1a');
INSERT INTO moves VALUES (1, '00000000000000ab', 0, 0, 19, 'R3', '2026-11-29 10:01:00.000000');
INSERT INTO moves VALUES (2, '00000000000000ab', 1, 1, 25, 'O1', '2026-11-29 10:02:00.000000');
