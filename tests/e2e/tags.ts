/**
 * Tests that cut an upload on purpose (a paused XHR, a severed TCP connection mid-body). The local
 * runtime (wrangler's proxy worker in front of workerd) then drops another request in flight on
 * its way to the Worker: a POST there fails with "Network connection lost." although the app
 * answered the cut PATCH correctly (tests/integration/uploads.test.ts checks that answer). So
 * these run in their own project, one at a time, after every other browser test
 * (playwright.config.ts). In production each request has its own connection and nothing is shared.
 */
export const CUTS_UPLOADS = "@cuts-uploads";
