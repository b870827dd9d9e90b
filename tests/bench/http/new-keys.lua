-- wrk script: POST /orders with a fresh Idempotency-Key per request (every request creates an order).
local counter = 0
local thread_id = 0
setup = function(thread)
    thread:set("id", thread_id)
    thread_id = thread_id + 1
end
request = function()
    counter = counter + 1
    return wrk.format("POST", "/orders",
        { ["Content-Type"] = "application/json", ["Idempotency-Key"] = "bench-" .. id .. "-" .. counter },
        '{"customer": "c-17", "amount": 12.5, "currency": "EUR"}')
end
