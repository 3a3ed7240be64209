import { accessPersonalData } from "~/features/access/personal-data.server";
import { accountsPersonalData } from "~/features/auth/personal-data.server";
import { commentsPersonalData } from "~/features/datarooms/personal-data.server";
import { notificationsPersonalData } from "~/features/notifications/personal-data.server";
import { favoritesPersonalData } from "~/features/files/organize.personal-data.server";
import { filesPersonalData } from "~/features/files/personal-data.server";
import { sharingPersonalData } from "~/features/sharing/personal-data.server";
import { secretsPersonalData } from "~/features/secrets/personal-data.server";
import { receivePagesPersonalData } from "~/features/receive/personal-data.server";
import { signaturesPersonalData } from "~/features/signatures/personal-data.server";
import { workflowsPersonalData } from "~/features/workflows/personal-data.server";
import { casesPersonalData } from "~/features/cases/personal-data.server";
import { teamsPersonalData } from "~/features/teams/personal-data.server";
import type { PersonalDataSource } from "./personal-data-source";

export { definePersonalDataSource, type PersonalDataRecord, type PersonalDataSource } from "./personal-data-source";

/**
 * Every module that owns personal data declares it here, in this one array: the export zip and
 * account deletion read nothing else, so a module missing from this list is neither exported
 * nor erased. When a module (files, data rooms, …) gains member data, define its source with
 * `definePersonalDataSource` in `app/features/<domain>/personal-data.server.ts` and add it
 * ABOVE accounts. Accounts stays last: erasing it deletes the users row, whose cascades end
 * the member's sessions, and the other sources may still need that row to find what is theirs.
 */
export const personalDataSources: readonly PersonalDataSource[] = [
  // Teams first: what the member made in teams' workspaces is handed to the teams before the
  // modules below erase the member's own.
  teamsPersonalData,
  accessPersonalData,
  filesPersonalData,
  favoritesPersonalData,
  commentsPersonalData,
  notificationsPersonalData,
  sharingPersonalData,
  secretsPersonalData,
  receivePagesPersonalData,
  signaturesPersonalData,
  workflowsPersonalData,
  casesPersonalData,
  accountsPersonalData,
];

/** The source whose erase deletes the users row; deletion runs it after every other source. */
export const accountSource: PersonalDataSource = accountsPersonalData;
