"""The shipped answer calendar: the NYT's Wordle answer of each day (builder.calendar)."""
