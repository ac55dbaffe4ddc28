-- A game's rule options in one column, as one typed value: the text form of
-- chimera_rules::RuleOptions (`key=value` pairs joined by `,`, each option
-- that differs from its default; the defaults are the empty text). Before
-- this, the one option there was (Magic Ring's power list) had a column of
-- its own, `ring_powers`, holding `QNRB` for a default Magic Ring game and
-- the empty text for the other variants; so had a lab study. A study's
-- spec is canonical JSON whose field `ring_powers` becomes `rules` at the
-- same place, so a study re-run with the same options compares equal.
-- Plain SQL for both back ends.
ALTER TABLE games RENAME COLUMN ring_powers TO rule_options;
UPDATE games SET rule_options = CASE
    WHEN rule_options = '' OR rule_options = 'QNRB' THEN ''
    ELSE 'ring_powers=' || rule_options
END;

ALTER TABLE lab_studies RENAME COLUMN ring_powers TO rule_options;
UPDATE lab_studies SET rule_options = CASE
    WHEN rule_options = '' OR rule_options = 'QNRB' THEN ''
    ELSE 'ring_powers=' || rule_options
END;
UPDATE lab_studies SET spec = REPLACE(REPLACE(REPLACE(spec,
    '"ring_powers":"', '"rules":"ring_powers='),
    '"rules":"ring_powers=QNRB"', '"rules":""'),
    '"rules":"ring_powers="', '"rules":""');
