-- wrk script: POST /orders repeating 50 keys per thread that a warm-up already created (every request is a replay).
local counter = 0
local thread_id = 0
setup = function(thread)
    thread:set("id", thread_id)
    thread_id = thread_id + 1
end
request = function()
    counter = counter + 1
    return wrk.format("POST", "/orders",
        { ["Content-Type"] = "application/json", ["Idempotency-Key"] = "replay-" .. id .. "-" .. (counter % 50) },
        '{"customer": "c-17", "amount": 12.5, "currency": "EUR"}')
end
