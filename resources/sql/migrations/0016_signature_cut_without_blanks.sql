-- SPDX-License-Identifier: GPL-3.0-or-later
-- outbox_error_signature() (migration 0015) with one more cut that was not a fixed point, which
-- tests/fuzz/fuzz_errorsignature found in its first ten minutes: a text over 300 characters without a blank was cut
-- at 300, which could fall inside a word whose tail was digits after a sign ("*3333333333xp" cut to "*33333"); the
-- next signing made those "<n>". Such a text is now cut where a run of letters, digits, '_' and '.' ends; a text
-- that is one such run is cut at 300 and signed once more. Every other text signs as before.
CREATE OR REPLACE FUNCTION outbox_error_signature(error text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    s text := split_part(error, E'\n', 1);
    cut text;
BEGIN
    -- A second pass only for a text that is one run of letters, digits, '_' and '.' past its 300th character (see
    -- below).
    FOR pass IN 1..2 LOOP
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
        IF cut = '' THEN
            -- No blank: cut where a run of the characters the number rule reads as one word ends, so that no
            -- digits of a word become a number of their own ("*3333xp" cut to "*33", which the next signing made
            -- "*<n>").
            cut := regexp_replace(left(s, 301), '([[:alnum:]_.]+|.)$', '');
        END IF;
        IF cut <> '' THEN
            RETURN cut;
        END IF;
        -- One run to the 301st character: cut at 300, where its tail may now read as a number, a duration or
        -- hex ("999…9x" cut to "999…9"), and sign that once more. The rules only shorten such a run, and a text
        -- of 300 characters or fewer signs to itself.
        s := left(s, 300);
    END LOOP;
    RETURN left(s, 300);
END
$$;

-- The rows an operator works with, signed again (the failure counts follow through their trigger). The partial
-- indexes of migration 0005 find them however large the table; the other rows' signatures are read by nothing
-- and stay, as do the attempts' (a changed group's first-seen time starts at this migration).
UPDATE outbox SET error_signature = outbox_error_signature(last_error)
WHERE status IN ('failed', 'dead') AND error_signature IS DISTINCT FROM outbox_error_signature(last_error);
