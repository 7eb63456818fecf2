"""Throwing the dice, moving, landing, the card decks and jail."""

from __future__ import annotations

from typing import Any

from bot.engine.money import charge, fines_payee, return_jail_card, transfer
from bot.engine.rent import railroad_rent, street_rent, utility_multiplier
from bot.engine.state import BANK, HOTEL, POT, GameState


def throw(state: GameState) -> tuple[int, int]:
    """Throw both dice and record them."""
    if state.dice_queue:
        first = state.die()
        second = state.die()
    else:  # the common case, inlined: this runs on every throw of every game
        next64 = state.rng.next64
        first = next64() % 6 + 1
        second = next64() % 6 + 1
    state.last_dice = [first, second]
    if state.record_events:
        state.events.append({"type": "rolled", "player": state.current, "dice": [first, second]})
    return first, second


def roll(state: GameState, seat: int) -> None:
    """The current player throws: a jail attempt, or a move (doubles and the third doubles)."""
    rules = state.rules
    if state.claims:
        state.claims = [c for c in state.claims if c["turn"] == state.turn]
    first, second = throw(state)
    player = state.players[seat]
    total = first + second
    if player.in_jail:
        _jail_attempt(state, seat, first == second, total)
        return
    if first == second:
        state.doubles += 1
        if state.doubles >= rules.doubles_to_jail:
            # 000: "... so darf er den dritten Zug nicht mehr ausführen, sondern muss
            # sich mit seiner Spielfigur direkt ins Gefängnis begeben."
            send_to_jail(state, seat, "three_doubles")
            return
        state.may_roll = True
    else:
        state.may_roll = False
    move_by(state, seat, total, total)


def _jail_attempt(state: GameState, seat: int, doubles: bool, total: int) -> None:
    rules = state.rules
    player = state.players[seat]
    state.may_roll = False
    if doubles:
        # 000: "Man zieht sofort um die Summe der Würfelaugen weiter. Noch einmal
        # würfeln darf man dann allerdings nicht" (setting jail_doubles_roll_again).
        release(state, seat, "doubles")
        if rules.jail_doubles_roll_again:
            state.doubles = 1
            state.may_roll = True
        move_by(state, seat, total, total)
        return
    player.jail_turns += 1
    if player.jail_turns < rules.jail_max_attempts:
        state.emit("jail_stay", player=seat, attempts=player.jail_turns)
        return
    # 000: "Hat der Spieler mit dem dritten Wurf noch keinen Pasch, muss er € 50
    # Geldbuße zahlen und zieht dann sofort mit der Summe der Augen ... weiter."
    release(state, seat, "fine")
    charge(state, seat, fines_payee(state), jail_fine(state), "jail_fine")
    state.pending_move = total


def jail_fine(state: GameState) -> int:
    """The fine for leaving jail, from the settings or the board."""
    fine = state.rules.jail_fine
    return state.board.jail_fine if fine is None else fine


def salary(state: GameState) -> int:
    """The salary for reaching or passing LOS."""
    amount = state.rules.salary
    return state.board.salary if amount is None else amount


def release(state: GameState, seat: int, how: str) -> None:
    """Let a player out of jail (the move, if any, is up to the caller)."""
    player = state.players[seat]
    player.in_jail = False
    player.jail_turns = 0
    state.emit("left_jail", player=seat, how=how)


def pay_bail(state: GameState, seat: int) -> None:
    """Pay the fine before throwing and leave jail."""
    transfer(state, seat, fines_payee(state), jail_fine(state), "bail")
    release(state, seat, "bail")


def use_jail_card(state: GameState, seat: int, deck: str) -> None:
    """Play a jail-free card; it goes back under its deck (open question 19)."""
    state.players[seat].jail_cards.remove(deck)
    return_jail_card(state, deck)
    release(state, seat, "card")


def send_to_jail(state: GameState, seat: int, reason: str) -> None:
    """Straight to jail: no salary, and the turn's throws end."""
    player = state.players[seat]
    player.position = state.board.jail_index
    player.in_jail = True
    player.jail_turns = 0
    if seat == state.current:
        state.may_roll = False
    state.emit("jailed", player=seat, reason=reason)


def move_by(state: GameState, seat: int, steps: int, dice_total: int | None) -> None:
    """Move forward ``steps`` squares, collecting the salary when reaching or passing LOS."""
    player = state.players[seat]
    start = player.position
    target = start + steps
    if target >= 40:
        target -= 40
        transfer(state, BANK, seat, salary(state), "salary")
        if target == 0 and state.rules.go_landing_bonus:
            transfer(state, BANK, seat, salary(state), "go_landing_bonus")
    player.position = target
    if state.record_events:
        state.events.append({"type": "moved", "player": seat, "from": start, "to": target})
    land(state, seat, dice_total, None)


def move_to(state: GameState, seat: int, target: int, salary_if_passing: bool, card: dict) -> None:
    """Move forward to ``target`` (a card), collecting the salary when passing LOS."""
    player = state.players[seat]
    start = player.position
    if salary_if_passing and target <= start:
        transfer(state, BANK, seat, salary(state), "salary")
    player.position = target
    state.emit("moved", player=seat, **{"from": start, "to": target})
    land(state, seat, None, card)


def move_back(state: GameState, seat: int, target: int, card: dict) -> None:
    """Move backwards to ``target``; never a salary."""
    player = state.players[seat]
    start = player.position
    player.position = target
    state.emit("moved", player=seat, backward=True, **{"from": start, "to": target})
    land(state, seat, None, card)


def land(state: GameState, seat: int, dice_total: int | None, card: dict | None) -> None:
    """Do what the square the player now stands on demands."""
    square = state.players[seat].position
    info = state.board.squares[square]
    kind = info.kind
    if kind in ("street", "railroad", "utility"):
        owner = state.owner[square]
        if owner == BANK:
            state.pending_buy = square
        elif owner != seat:
            _owe_rent(state, seat, square, dice_total, card)
    elif kind == "tax":
        charge(state, seat, fines_payee(state), info.amount, "tax")
    elif kind == "chance" or kind == "community":
        draw_card(state, seat, kind)
    elif kind == "go_to_jail":
        send_to_jail(state, seat, "square")
    elif kind == "free_parking" and state.rules.free_parking != "off":
        # House rule; 001/003: "Alle Steuern und Strafen ... dürfen nicht für das
        # Landen auf dem FREI PARKEN-Feld gesammelt werden" - so it is off by default.
        if state.rules.free_parking == "fixed":
            transfer(state, BANK, seat, state.rules.free_parking_amount, "free_parking")
        else:
            transfer(state, POT, seat, state.pot, "free_parking")


def _owe_rent(
    state: GameState, seat: int, square: int, dice_total: int | None, card: dict | None
) -> None:
    owner = state.owner[square]
    if state.mortgaged[square]:
        state.emit("no_rent", player=seat, square=square, owner=owner, why="mortgaged")
        return
    if not state.rules.rent_while_in_jail and state.players[owner].in_jail:
        state.emit("no_rent", player=seat, square=square, owner=owner, why="owner_in_jail")
        return
    kind = state.board.squares[square].kind
    if kind == "street":
        amount = street_rent(state, square)
    elif kind == "railroad":
        amount = railroad_rent(state, square, card.get("rent_multiplier", 1) if card else 1)
    else:
        # 000: "Wurde ein Spieler durch eine Ereignis- oder Gemeinschaftskarte hierher
        # geschickt, so muss er beide Würfel werfen, um die Höhe der Miete zu bestimmen."
        if card is not None or dice_total is None:
            first, second = throw(state)
            dice_total = first + second
        factor = card.get("dice_multiplier") if card else None
        amount = dice_total * (factor or utility_multiplier(state, square))
    if state.rules.rent_must_be_claimed:
        state.claims.append(
            {"owner": owner, "payer": seat, "square": square, "amount": amount, "turn": state.turn}
        )
        state.emit("rent_due", player=seat, owner=owner, square=square, amount=amount)
        return
    charge(state, seat, owner, amount, "rent")


def draw_card(state: GameState, seat: int, deck: str) -> None:
    """Take the top card, put it back under the deck (unless kept), and follow it."""
    card_id = state.decks[deck].pop(0)
    card = state.board.card(deck, card_id)
    effect = card.effect
    kind = effect["type"]
    if state.record_events:
        state.events.append({"type": "card", "player": seat, "deck": deck, "card": card_id})
    if kind == "get_out_of_jail_free":
        state.players[seat].jail_cards.append(deck)
        return
    state.decks[deck].append(card_id)
    _follow(state, seat, effect)


def _follow(state: GameState, seat: int, effect: dict[str, Any]) -> None:
    kind = effect["type"]
    player = state.players[seat]
    if kind == "move_to":
        target = effect["target"]
        if effect.get("direction") == "backward":
            move_back(state, seat, target, effect)
        else:
            move_to(state, seat, target, effect.get("collect_salary_if_passing_go", True), effect)
    elif kind == "move_back":
        move_back(state, seat, (player.position - effect["steps"]) % 40, effect)
    elif kind == "move_to_nearest":
        squares = state.board.squares
        target = next(
            (player.position + k) % 40
            for k in range(1, 41)
            if squares[(player.position + k) % 40].kind == effect["kind"]
        )
        move_to(state, seat, target, effect.get("collect_salary_if_passing_go", True), effect)
    elif kind == "go_to_jail":
        send_to_jail(state, seat, "card")
    elif kind == "collect":
        transfer(state, BANK, seat, effect["amount"], "card")
    elif kind == "pay":
        charge(state, seat, fines_payee(state), effect["amount"], "card")
    elif kind == "pay_each_player":
        for other in state.active_players():
            if other != seat:
                charge(state, seat, other, effect["amount"], "card")
    elif kind == "collect_from_each_player":
        for other in state.active_players():
            if other != seat:
                charge(state, other, seat, effect["amount"], "card")
    elif kind == "repairs":
        houses = hotels = 0
        for i, owner in enumerate(state.owner):
            if owner == seat and state.houses[i]:
                if state.houses[i] == HOTEL:
                    hotels += 1
                else:
                    houses += state.houses[i]
        amount = houses * effect["per_house"] + hotels * effect["per_hotel"]
        charge(state, seat, fines_payee(state), amount, "repairs")
    elif kind == "pay_or_draw":
        state.pending_choice = {
            "player": seat,
            "amount": effect["amount"],
            "deck": effect["alternative_deck"],
        }
    else:
        raise ValueError(f"unknown card effect {kind!r}")
