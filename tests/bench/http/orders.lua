-- SPDX-License-Identifier: GPL-3.0-or-later
-- wrk script: POST /orders. KEYS=fresh (default) sends a new Idempotency-Key per request, so every request
-- creates an order; KEYS=replay cycles over 50 keys per thread, which a warm-up pass has created, so every
-- request is a replay. Keys start with RUN (default: the time), so runs on one database stay apart.
local replay = os.getenv("KEYS") == "replay"
local run = os.getenv("RUN") or tostring(os.time()) -- keeps one run's keys apart from another's
local counter = 0
local thread_id = 0
setup = function(thread)
    thread:set("id", thread_id)
    thread_id = thread_id + 1
end
request = function()
    counter = counter + 1
    local key = replay and (run .. "-replay-" .. id .. "-" .. (counter % 50)) or (run .. "-fresh-" .. id .. "-" .. counter)
    return wrk.format("POST", "/orders", { ["Content-Type"] = "application/json", ["Idempotency-Key"] = key },
        '{"customer": "c-17", "amount": 12.5, "currency": "EUR"}')
end
