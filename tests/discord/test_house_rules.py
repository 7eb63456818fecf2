"""House rules: the host changes them in the lobby, only before the start."""

from __future__ import annotations

from tests.discord.helpers import Table, open_lobby, private_reply

pytest_plugins = ["tests.discord.helpers"]


def _select_id(message, setting: str) -> str:
    for row in message.components:
        for item in row.get("components", []):
            if str(item.get("custom_id", "")).endswith(f":hr:{setting}"):
                return item["custom_id"]
    raise AssertionError(f"no select for {setting}")


async def test_the_host_sets_house_rules_and_the_game_plays_by_them(table: Table) -> None:
    """Alice opens a lobby, turns on the Free Parking pot and 2.000 € starting money;
    Bob may not touch them; the started game carries both, and the lobby shows them."""
    await open_lobby(table, table.alice, language="de")
    lobby = table.channel.last_message

    refused = await table.bob.click(lobby, label="Hausregeln")
    assert refused.ephemeral and "Gastgeber" in private_reply(refused)

    opened = await table.alice.click(lobby, label="Hausregeln")
    assert opened.ephemeral
    panel = opened.response
    chosen = await table.alice.select(panel, ["1"], custom_id=_select_id(panel, "free_parking"))
    assert not chosen.followups or "nicht" not in private_reply(chosen)

    shown = await table.alice.click(panel, label="Beträge ändern")
    assert shown.modal is not None
    bad = await table.alice.submit_modal(shown, {"start_money": "viel"})
    assert "keine Zahl" in private_reply(bad)
    shown = await table.alice.click(panel, label="Beträge ändern")
    await table.alice.submit_modal(shown, {"start_money": "2.000"})

    lobby_now = table.message(lobby.id)
    rules_field = lobby_now.embeds[0].fields[1].value
    assert "Frei Parken: Steuern und Strafen in die Kasse (geändert)" in rules_field
    assert "Startkapital: 2.000 € (geändert)" in rules_field

    await table.bob.click(lobby_now, label="Mitspielen")
    await table.alice.click(lobby_now, label="Spiel starten")
    state = await table.state()
    assert state.rules.free_parking == "taxes"
    assert state.rules.start_money == 2000
    assert all(p.cash == 2000 for p in state.players)


async def test_out_of_bounds_amounts_are_refused_and_change_nothing(table: Table) -> None:
    """A starting money of 5 million is above the bound: refused, the lobby is unchanged."""
    await open_lobby(table, table.alice, language="de")
    lobby = table.channel.last_message
    opened = await table.alice.click(lobby, label="Hausregeln")
    shown = await table.alice.click(opened.response, label="Beträge ändern")
    refused = await table.alice.submit_modal(shown, {"start_money": "5000000"})
    assert "nicht erlaubt" in private_reply(refused)
    row = await table.row()
    assert row.settings.get("overrides", {}) == {}


async def test_the_rarer_amounts_have_their_own_form(table: Table) -> None:
    """Auctions' minimum bid and raise, the attempts to roll out of jail and the bank's
    houses and hotels are house rules too (bounds in ``bot/engine/rules.py``): set in a
    second form, shown in the lobby, played by the started game; out of bounds is refused."""
    await open_lobby(table, table.alice, language="de")
    lobby = table.channel.last_message
    panel = (await table.alice.click(lobby, label="Hausregeln")).response

    shown = await table.alice.click(panel, label="Auktion, Gefängnis, Bestand")
    refused = await table.alice.submit_modal(shown, {"jail_max_attempts": "11"})
    assert "nicht erlaubt" in private_reply(refused)
    assert (await table.row()).settings.get("overrides", {}) == {}

    shown = await table.alice.click(panel, label="Auktion, Gefängnis, Bestand")
    typed = {
        "auction_min_bid": "50",
        "auction_min_raise": "10",
        "jail_max_attempts": "2",
        "houses_total": "20",
        "hotels_total": "",
    }
    await table.alice.submit_modal(shown, typed)
    rules_field = table.message(lobby.id).embeds[0].fields[1].value
    assert rules_field.count("(geändert)") == 4, rules_field

    await table.bob.click(table.message(lobby.id), label="Mitspielen")
    await table.alice.click(table.message(lobby.id), label="Spiel starten")
    state = await table.state()
    rules = state.rules
    assert (rules.auction_min_bid, rules.auction_min_raise) == (50, 10)
    assert (rules.jail_max_attempts, rules.houses_total, rules.hotels_total) == (2, 20, None)
    assert (state.bank_houses, state.bank_hotels) == (20, 12)


async def test_the_last_numeric_settings_have_a_third_form(table: Table) -> None:
    """Bail turns, doubles to jail, mortgage interest, dealt deeds and the end after a number
    of bankruptcies: every numeric setting of ``docs/presets.md`` can be set in the lobby."""
    await open_lobby(table, table.alice, language="de")
    lobby = table.channel.last_message
    panel = (await table.alice.click(lobby, label="Hausregeln")).response
    shown = await table.alice.click(panel, label="Pasch, Zinsen, Karten, Ende")
    typed = {
        "jail_bail_turns": "1",
        "doubles_to_jail": "2",
        "interest_percent": "5",
        "deal_deeds": "",
        "end_after_bankruptcies": "1",
    }
    await table.alice.submit_modal(shown, typed)
    await table.bob.click(table.message(lobby.id), label="Mitspielen")
    await table.alice.click(table.message(lobby.id), label="Spiel starten")
    rules = (await table.state()).rules
    assert (rules.jail_bail_turns, rules.doubles_to_jail, rules.interest_percent) == (1, 2, 5)
    assert (rules.deal_deeds, rules.end_after_bankruptcies) == (0, 1)
