/** The referral cookie (first-party, issue 43): the code of the last referral link followed. */
export const REFERRAL_COOKIE = "sr_ref";
/** How long a followed link attributes a sign-up. */
export const REFERRAL_DAYS = 90;
export const REFERRAL_CODE_PATTERN = /^[a-z2-9]{8}$/;

export type ReferralStatus = "signed_up" | "paid" | "refused";

export type ReferralPage = {
  code: string;
  path: string;
  credit: { cents: number; currency: string };
  stats: { clicks: number; signUps: number; paid: number; creditedCents: number; currency: string };
  people: { email: string; signedUpAt: string; status: ReferralStatus; refusal: string | null; creditCents: number | null; currency: string | null; credited: boolean }[];
};
