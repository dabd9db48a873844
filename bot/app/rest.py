"""The REST budget's hook on discord.py (issue 36): every call the bot makes with its
token through ``HTTPClient.request`` — each message sent, edited or deleted by channel id
— first waits for `RestBudget.acquire`; interaction endpoints (`bot.runtime.budget.counted`)
go straight through.

The hook is the client's ``request`` on the instance, so it sits above whatever
transport is below: discord.py's own (its per-route buckets, its 429 handling) in
production, SimCord's in-memory router in tests, which still sees every call. Interaction
answers, original-response edits and follow-ups mostly travel through discord.py's
webhook adapter and never reach ``HTTPClient.request``; those that do are let through by
path. A call waits here before discord.py's per-route bucket, so a route bucket can only
spread calls further apart, never bunch them past the budget. What the budget keeps away:
on a 429 with ``X-RateLimit-Global``, discord.py holds every REST call of the process (its
``_global_over`` event) for the ``retry_after`` Discord names.
"""

from __future__ import annotations

from typing import Any

from discord.http import HTTPClient, Route

from bot.runtime.budget import RestBudget, counted

__all__ = ["install_budget"]


def install_budget(http: HTTPClient, budget: RestBudget) -> None:
    """Make every counted call of `http` wait for `budget` first (a budget installed
    before is replaced). The client's own ``request`` is looked up on its class at each
    call, so whatever sits there (SimCord's transport, a test's wrapper) still runs."""

    async def budgeted(route: Route, **kwargs: Any) -> Any:
        if counted(route.path):
            await budget.acquire()
        return await type(http).request(http, route, **kwargs)

    http.request = budgeted  # type: ignore[method-assign]
