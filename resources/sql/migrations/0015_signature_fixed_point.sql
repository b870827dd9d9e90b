-- SPDX-License-Identifier: GPL-3.0-or-later
-- outbox_error_signature() again (migration 0005), now a fixed point: signing a signature changes nothing, which
-- tests/fuzz/fuzz_errorsignature checks. Three texts broke it:
--   - a number before an apostrophe ("8'") became "<n>'", after which the apostrophe opened a literal: no quote
--     after '>' (a placeholder's end) or after another quote opens one any more, which also keeps an empty literal
--     from swallowing the next ("exchange '', key 'a'" signed "''<str>'a'" where it followed another quote);
--   - the cut at 300 characters could end in a blank, which the next signing trimmed;
--   - or inside a word ("5x" cut to "5", which the next signing made "<n>"): a longer text is cut after its last
--     whole word within the 300 (at 300 if it has none).
-- Every other text signs as before.
CREATE OR REPLACE FUNCTION outbox_error_signature(error text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    s text := split_part(error, E'\n', 1);
    cut text;
BEGIN
    s := regexp_replace(s, '[a-zA-Z][a-zA-Z0-9+.-]*://[^[:space:]''"()<>]+', '<url>', 'g');
    s := regexp_replace(s, '\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?', '<time>', 'g');
    s := regexp_replace(s, '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}', '<uuid>', 'g');
    -- A quote after a letter is an apostrophe ("can't"), not the start of a literal; nor is one after a
    -- placeholder or another quote.
    s := regexp_replace(s, '(?<![[:alnum:]''>])''[^'']*''', '''<str>''', 'g');
    s := regexp_replace(s, '"[^"]*"', '"<str>"', 'g');
    s := regexp_replace(s, '\[[0-9a-fA-F:.]+\](:\d+)?|(?<![[:alnum:].])\d{1,3}(\.\d{1,3}){3}(:\d+)?', '<host>', 'g');
    s := regexp_replace(s, '\m[a-zA-Z][a-zA-Z0-9.-]*:\d{2,5}\M', '<host>', 'g');
    s := regexp_replace(s, '(^|[[:space:](=])/[^[:space:]:,;)]+', '\1<path>', 'g');
    s := regexp_replace(s,
        '\m0x[0-9a-fA-F]+\M|\m(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{8,}\M', '<hex>', 'g');
    s := regexp_replace(s,
        '(?<![[:alnum:]_.])\d+(\.\d+)?[[:space:]]?(ms|us|ns|s|sec|secs|seconds?|min|mins|minutes?|h|hours?)\M',
        '<duration>', 'g');
    -- A number inside a word or a version ("x509", "TLSv1.3") is part of it.
    s := regexp_replace(s, '(?<![[:alnum:]_.])\d+(\.\d+)?(?![[:alnum:]_])', '<n>', 'g');
    s := btrim(regexp_replace(s, '[[:space:]]+', ' ', 'g'));
    IF length(s) <= 300 THEN
        RETURN s;
    END IF;
    -- The 301st character tells whether the 300th ends a word.
    cut := rtrim(regexp_replace(left(s, 301), '[^ ]*$', ''));
    RETURN CASE WHEN cut = '' THEN left(s, 300) ELSE cut END;
END
$$;

-- The rows an operator works with, signed again (the failure counts follow through their trigger). The partial
-- indexes of migration 0005 find them however large the table; the other rows' signatures are read by nothing
-- and stay, as do the attempts' (a changed group's first-seen time starts at this migration).
UPDATE outbox SET error_signature = outbox_error_signature(last_error)
WHERE status IN ('failed', 'dead') AND error_signature IS DISTINCT FROM outbox_error_signature(last_error);
