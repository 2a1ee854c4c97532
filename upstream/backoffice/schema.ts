/**
 * Migration 5 (issue 49): the back office's own tables. The audit log and the alarms'
 * acknowledgements are append-only in the database itself: a trigger refuses UPDATE, DELETE and
 * TRUNCATE, whoever asks. An alarm may be cleared (its `cleared_at` set) but never deleted.
 */
export const BACKOFFICE_SQL = `
  CREATE TABLE backoffice_users (
    name text PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9._-]{1,31}$'),
    role text NOT NULL CHECK (role IN ('viewer', 'supervisor', 'accounting', 'administrator')),
    password_hash text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    disabled_at timestamptz
  );
  -- token_hash: SHA-256 of the cookie's secret (the secret itself is never stored).
  CREATE TABLE backoffice_sessions (
    token_hash text PRIMARY KEY,
    user_name text NOT NULL REFERENCES backoffice_users,
    csrf text NOT NULL,
    address text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    ends_by timestamptz NOT NULL,
    ended_at timestamptz
  );
  CREATE TABLE audit_log (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    actor text,
    address text,
    action text NOT NULL,
    detail jsonb NOT NULL DEFAULT '{}'
  );
  CREATE TABLE alarm_acks (
    id bigserial PRIMARY KEY,
    alarm_id bigint NOT NULL REFERENCES alarms,
    user_name text NOT NULL,
    note text NOT NULL CHECK (length(note) BETWEEN 1 AND 1000),
    at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX alarm_acks_alarm ON alarm_acks (alarm_id, id);
  CREATE TABLE backoffice_settings (
    key text PRIMARY KEY,
    value jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    updated_by text NOT NULL
  );
  CREATE FUNCTION refuse_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP;
  END $$;
  CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_rewrite();
  CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewrite();
  CREATE TRIGGER alarm_acks_append_only BEFORE UPDATE OR DELETE ON alarm_acks FOR EACH ROW EXECUTE FUNCTION refuse_rewrite();
  CREATE TRIGGER alarm_acks_no_truncate BEFORE TRUNCATE ON alarm_acks FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewrite();
  CREATE TRIGGER alarms_never_deleted BEFORE DELETE ON alarms FOR EACH ROW EXECUTE FUNCTION refuse_rewrite();
  CREATE TRIGGER alarms_no_truncate BEFORE TRUNCATE ON alarms FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewrite();
`;
