import { SESSION_KEYS, type PersonType, type VerificationType } from '@provee/domain';
import { useParams } from 'react-router';
import { session } from '../../../shared/lib/session.js';

/** Who signs, as the signing routes carry it (SPEC §2.4). */
export interface Signer {
  userTypeId: string;
  userId: string;
  titularFullName: string;
  personType: string;
  collateralFullName: string;
}

/** A name may be empty (a titular has no guarantor name): a path segment may not, so it reads '-'. */
const EMPTY_SEGMENT = '-';
const segment = (value: string) => encodeURIComponent(value || EMPTY_SEGMENT);
const fromSegment = (value: string | undefined) => (!value || value === EMPTY_SEGMENT ? '' : value);

/** The prefix of the review screens: /{user_type_id}/{user_id}/{titular}/{person_type}/{collateral}. */
export function reviewPrefix(signer: Signer): string {
  const { userTypeId, userId, titularFullName, personType, collateralFullName } = signer;
  return [userTypeId, userId, titularFullName, personType, collateralFullName].map((v) => `/${segment(v)}`).join('');
}

export const reviewDocumentsPath = (signer: Signer, verificationType: VerificationType) =>
  `${reviewPrefix(signer)}/review-documents?verification_type=${verificationType}`;

/** /{user_type_id}/{user_id}/{person_type}/singning (spelled so, SPEC §2.4). */
export const signingPath = (signer: Pick<Signer, 'userTypeId' | 'userId' | 'personType'>) =>
  `/${segment(signer.userTypeId)}/${segment(signer.userId)}/${segment(signer.personType)}/singning`;

/** Back to the start with the link's query; the token stays in this tab's session storage. */
export function sendContractSignPath(signer: Signer): string {
  const query = new URLSearchParams({
    user_type_id: signer.userTypeId,
    user_id: signer.userId,
    titular_full_name: signer.titularFullName,
    type: signer.personType,
    collateral_full_name: signer.collateralFullName,
  });
  return `/send-contract-sign?${query.toString()}`;
}

/** The signer of a review screen's path. */
export function useSigner(): Signer {
  const params = useParams();
  return {
    userTypeId: params.userTypeId ?? '',
    userId: params.userId ?? '',
    titularFullName: fromSegment(params.titularFullName),
    personType: params.personType ?? '',
    collateralFullName: fromSegment(params.collateralFullName),
  };
}

export const isCollateral = (personType: string) => personType === ('collateral' satisfies PersonType);

/** The query's verification type; anything else reads as a first verification. */
export function verificationTypeOf(value: string | null): VerificationType {
  return value === 'REVERIFICATION' ? 'REVERIFICATION' : 'VERIFICATION';
}

/** The signing link's token: read from the link once, then kept for this tab's signing calls. */
export const contractToken = {
  get: () => session.get(SESSION_KEYS.contractToken),
  set: (token: string) => session.set(SESSION_KEYS.contractToken, token),
  clear: () => session.remove(SESSION_KEYS.contractToken),
};

/** The SHA-256 of the contract the signing page offered (the signature is for that document). */
export const contractDocument = {
  get: () => session.get(SESSION_KEYS.contractDocument),
  set: (sha256: string) => session.set(SESSION_KEYS.contractDocument, sha256),
  clear: () => session.remove(SESSION_KEYS.contractDocument),
};
