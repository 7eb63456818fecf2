"""Payments, debts and bankruptcy.

Every change of a player's cash goes through :func:`transfer`, which emits one
``payment`` event; the property tests rebuild all cash from those events. A
payment a player cannot make in cash becomes a debt, which the debtor settles
by selling buildings, mortgaging, trading or offering lots, or by going bankrupt.
"""

from __future__ import annotations

from bot.engine.state import BANK, HOTEL, POT, GameState
from bot.engine.wealth import building_units, standings, wealth


def transfer(state: GameState, payer: int, payee: int, amount: int, reason: str) -> None:
    """Move ``amount`` from ``payer`` to ``payee`` (either may be the bank)."""
    if amount <= 0:
        return
    players = state.players
    if payer >= 0:
        players[payer].cash -= amount
    elif payer == POT:
        state.pot -= amount
    if payee >= 0:
        players[payee].cash += amount
    elif payee == POT:
        state.pot += amount
    if state.record_events:
        state.events.append(
            {"type": "payment", "from": payer, "to": payee, "amount": amount, "reason": reason}
        )


def fines_payee(state: GameState) -> int:
    """Where taxes and fines go: the bank, or the Free Parking pot (house rule)."""
    return POT if state.rules.free_parking == "taxes" else BANK


def charge(state: GameState, debtor: int, creditor: int, amount: int, reason: str) -> None:
    """Make ``debtor`` pay ``amount``; what cannot be paid in cash now becomes a debt."""
    if amount <= 0:
        return
    debts = state.debts
    owes_already = bool(debts) and any(d["debtor"] == debtor for d in debts)
    if not owes_already and state.players[debtor].cash >= amount:
        transfer(state, debtor, creditor, amount, reason)
        return
    state.debts.append({"debtor": debtor, "creditor": creditor, "amount": amount, "reason": reason})
    state.emit("debt", debtor=debtor, creditor=creditor, amount=amount, reason=reason)


def settle_debts(state: GameState) -> None:
    """Pay every debt at the head of the queue whose debtor now has the cash."""
    debts = state.debts
    players = state.players
    while debts:
        debt = debts[0]
        debtor = players[debt["debtor"]]
        if debtor.bankrupt:
            debts.pop(0)
            continue
        creditor = debt["creditor"]
        if creditor >= 0 and players[creditor].bankrupt:
            debts.pop(0)  # a creditor who left the game can no longer be paid
            continue
        if debtor.cash < debt["amount"]:
            return
        debts.pop(0)
        if state.lot_offer is not None and state.lot_offer["debtor"] == debt["debtor"]:
            state.lot_offer = None  # the debt is paid in cash: the offer of lots lapses
        transfer(state, debt["debtor"], creditor, debt["amount"], debt["reason"])
        state.emit("debt_paid", debtor=debt["debtor"], creditor=creditor, amount=debt["amount"])


def liquidation_value(state: GameState, seat: int) -> int:
    """Cash a player could raise: cash, buildings at half, unmortgaged lots' mortgage values."""
    squares = state.board.squares
    total = state.players[seat].cash
    for i, owner in enumerate(state.owner):
        if owner != seat:
            continue
        total += building_units(state, i) * squares[i].house_cost // 2
        if not state.mortgaged[i]:
            total += squares[i].mortgage
    return total


def receive_mortgaged(state: GameState, seat: int, square: int) -> None:
    """A mortgaged lot changed hands: its new owner must choose to lift it or pay 10 %.

    000: "Wenn ein Besitztum übertragen wird, das hypothekarisch belastet ist, kann
    der neue Inhaber die Hypothek sofort zurückzahlen ... Kündigt er bei Erhalt der
    Besitzrechtkarten die Hypothek nicht, muss er trotzdem die fälligen 10 % Zinsen
    bezahlen." The choice is made with the ``decide_mortgages`` action.
    """
    choices = state.mortgage_choices
    if choices and choices[-1]["player"] == seat:
        choices[-1]["squares"].append(square)
    else:
        choices.append({"player": seat, "squares": [square]})


def decide_mortgages(state: GameState, seat: int, lift: list[int]) -> None:
    """Carry out a receiver's choice: lift the lots in ``lift``, pay 10 % on the others."""
    choice = state.mortgage_choices.pop(0)
    squares = state.board.squares
    rules = state.rules
    # Lifting is paid in cash (checked); the 10 % on kept lots may become a debt.
    for square in choice["squares"]:
        if square in lift:
            value = squares[square].mortgage
            state.mortgaged[square] = False
            state.emit("unmortgaged", player=seat, square=square)
            transfer(state, seat, BANK, value + rules.interest(value), "unmortgage")
    for square in choice["squares"]:
        if square not in lift:
            state.emit("kept_mortgage", player=seat, square=square)
            interest = rules.interest(squares[square].mortgage)
            charge(state, seat, BANK, interest, "transfer_interest")


def return_jail_card(state: GameState, deck: str) -> None:
    """Put a used or surrendered jail-free card back under its deck."""
    in_deck = set(state.decks[deck])
    for card in state.board.decks[deck]:
        if card.effect["type"] == "get_out_of_jail_free" and card.id not in in_deck:
            state.decks[deck].append(card.id)
            return


def declare_bankrupt(state: GameState, seat: int, creditor: int | None = None) -> None:
    """``seat`` cannot pay the debt at the head of the queue and leaves the game.

    ``creditor`` defaults to the creditor of that debt; a player who gives up or
    is removed without owing anything leaves to the bank.

    To a player: buildings are sold to the bank at half their cost and that cash,
    the debtor's cash, lots (mortgaged ones with the 10 % duty) and jail-free cards
    go to the creditor. To the bank: buildings return to the bank, jail-free cards
    go under their decks, and the bank auctions every lot.
    """
    debt = state.debts[0] if state.debts and state.debts[0]["debtor"] == seat else None
    if creditor is None:
        creditor = debt["creditor"] if debt is not None else BANK
    player = state.players[seat]
    squares = state.board.squares
    owned = [i for i, o in enumerate(state.owner) if o == seat]
    building_money = 0
    for i in owned:
        units = building_units(state, i)
        if state.houses[i] == HOTEL:
            state.bank_hotels += 1
        else:
            state.bank_houses += state.houses[i]
        state.houses[i] = 0
        building_money += units * squares[i].house_cost // 2
    owed = debt["amount"] if debt is not None else 0
    state.emit("bankrupt", player=seat, creditor=creditor, debt=owed, lots=owned)
    state.debts = [d for d in state.debts if d["debtor"] != seat and d["creditor"] != seat]
    state.trades = [t for t in state.trades if seat not in (t["from"], t["to"])]
    state.claims = [c for c in state.claims if seat not in (c["owner"], c["payer"])]
    state.lot_offer = None
    state.mortgage_choices = [c for c in state.mortgage_choices if c["player"] != seat]
    auction = state.auction
    if auction is not None and seat in auction["bidders"]:
        # A bidder who leaves the game leaves the auction; a bid of theirs that led
        # is void, so the others bid again from the opening minimum.
        auction["bidders"] = [b for b in auction["bidders"] if b != seat]
        auction["passed"] = [b for b in auction["passed"] if b != seat]
        if auction["leader"] == seat:
            auction["leader"] = None
            auction["high"] = 0
    if creditor < 0:  # the bank (or the Free Parking pot, which the bank keeps)
        transfer(state, seat, BANK, player.cash, "bankruptcy")
        for deck in player.jail_cards:
            return_jail_card(state, deck)
        for i in owned:
            state.owner[i] = BANK
            if state.rules.bank_auction_mortgaged_free:
                state.mortgaged[i] = False
        state.auction_queue.extend(owned)
    else:
        transfer(state, BANK, creditor, building_money, "bankruptcy_buildings")
        transfer(state, seat, creditor, player.cash, "bankruptcy")
        state.players[creditor].jail_cards.extend(player.jail_cards)
        for i in owned:
            state.owner[i] = creditor
        for i in owned:
            if state.mortgaged[i]:
                receive_mortgaged(state, creditor, i)
    player.jail_cards = []
    player.bankrupt = True
    player.in_jail = False
    player.jail_turns = 0
    if seat == state.current:
        state.pending_buy = None
        state.pending_move = None
        state.pending_choice = None
        state.may_roll = False
    active = state.active_players()
    if len(active) == 1:
        end_game(state, "last_player", [[active[0], wealth(state, active[0])]])
        return
    limit = state.rules.end_after_bankruptcies
    if limit is not None and len(state.players) - len(active) >= limit:
        # 000, kürzeres Spiel: "Sobald der zweite Spieler bankrott ist, wird das Spiel
        # beendet ... Alle noch im Spiel verbliebenen Spieler zählen ihr Vermögen".
        end_by_wealth(state, "bankruptcies")


def end_game(state: GameState, reason: str, standings: list[list[int]]) -> None:
    """End the game: the first of ``standings`` (``[seat, wealth]`` rows) wins; none if empty."""
    state.winner = standings[0][0] if standings else None
    state.end_reason = reason
    state.auction_queue = []
    state.auction = None
    state.pending_building = None
    if reason != "last_player":
        state.standings = standings
    state.emit("game_over", winner=state.winner, reason=reason, standings=standings)


def end_by_wealth(state: GameState, reason: str) -> None:
    """End the game by counting wealth; the richest wins (ties: the earlier seat).

    Mortgaged lots just received and not yet decided on are kept: their 10 % is due
    "sofort", so it is paid before counting (as far as the receiver's cash goes).
    """
    for choice in state.mortgage_choices:
        seat = choice["player"]
        for square in choice["squares"]:
            interest = state.rules.interest(state.board.squares[square].mortgage)
            state.emit("kept_mortgage", player=seat, square=square)
            transfer(
                state, seat, BANK, min(interest, state.players[seat].cash), "transfer_interest"
            )
    state.mortgage_choices = []
    end_game(state, reason, [list(row) for row in standings(state)])
