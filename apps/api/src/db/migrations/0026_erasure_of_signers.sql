-- Erasure (issue 31, modules/privacy/erase-application.ts) tombstones a signer's name and phone and
-- clears their signature image, evidence and verifier id; for a signed signer the retention schedule
-- does so only once the contract's legal term has passed. The signing evidence stays refused to
-- every other writer: only a transaction that said it erases (set_config('provee.erasing', 'on',
-- true), as for identity documents in 0025) may update a signed signer; a delete is still refused.
CREATE OR REPLACE FUNCTION contract_signers_keep_signature() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND coalesce(current_setting('provee.erasing', true), '') = 'on' THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' OR OLD.state = 'SIGNED' THEN
    RAISE EXCEPTION '% is evidence: % of a signed signer refused', TG_TABLE_NAME, TG_OP;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
