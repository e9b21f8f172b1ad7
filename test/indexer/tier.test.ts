import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { tierOf } from "../../indexer/tier.js";

describe("tierOf", () => {
  test("identity.md, state.md and references.md are hot, each with its own layout", () => {
    assert.deepEqual(tierOf("identity.md"), { tier: "hot", layout: "identity" });
    assert.deepEqual(tierOf("state.md"), { tier: "hot", layout: "state" });
    assert.deepEqual(tierOf("references.md"), { tier: "hot", layout: "references" });
  });

  test("the hot files are hot as .mdx too", () => {
    assert.deepEqual(tierOf("identity.mdx"), { tier: "hot", layout: "identity" });
    assert.deepEqual(tierOf("state.mdx"), { tier: "hot", layout: "state" });
    assert.deepEqual(tierOf("references.mdx"), { tier: "hot", layout: "references" });
  });

  test("notes under reference/ are warm with the reference layout", () => {
    assert.deepEqual(tierOf("reference/storage.md"), { tier: "warm", layout: "reference" });
    assert.deepEqual(tierOf("reference/embeddings.mdx"), { tier: "warm", layout: "reference" });
  });

  test("notes under sessions/ are warm with the session layout", () => {
    assert.deepEqual(tierOf("sessions/2026-11-18.md"), { tier: "warm", layout: "session" });
  });

  test("anything under archive/ is cold, however deep and whatever its name", () => {
    assert.deepEqual(tierOf("archive/2026-q2-retro.md"), { tier: "cold", layout: "archive" });
    assert.deepEqual(tierOf("archive/sessions/2026-05-01.md"), { tier: "cold", layout: "archive" });
    assert.deepEqual(tierOf("archive/reference/old.md"), { tier: "cold", layout: "archive" });
    assert.deepEqual(tierOf("archive/state.md"), { tier: "cold", layout: "archive" });
    assert.deepEqual(tierOf("projects/mem/archive/2025/notes.md"), { tier: "cold", layout: "archive" });
  });

  test("a file merely named archive is not cold", () => {
    assert.deepEqual(tierOf("archive.md"), { tier: "warm", layout: "note" });
  });

  test("every other note is warm with the note layout", () => {
    assert.deepEqual(tierOf("ideas.md"), { tier: "warm", layout: "note" });
    assert.deepEqual(tierOf("notes/meeting.md"), { tier: "warm", layout: "note" });
    assert.deepEqual(tierOf("identity-old.md"), { tier: "warm", layout: "note" });
    assert.deepEqual(tierOf("my-references.md"), { tier: "warm", layout: "note" });
  });

  test("a hot file's name inside reference/ or sessions/ takes that folder's layout", () => {
    assert.deepEqual(tierOf("reference/state.md"), { tier: "warm", layout: "reference" });
    assert.deepEqual(tierOf("sessions/identity.md"), { tier: "warm", layout: "session" });
  });

  test("only the direct parent folder decides reference and session layouts", () => {
    assert.deepEqual(tierOf("reference/sqlite/wal.md"), { tier: "warm", layout: "note" });
  });

  test("matching ignores case", () => {
    assert.deepEqual(tierOf("IDENTITY.MD"), { tier: "hot", layout: "identity" });
    assert.deepEqual(tierOf("State.Mdx"), { tier: "hot", layout: "state" });
    assert.deepEqual(tierOf("Archive/Old.md"), { tier: "cold", layout: "archive" });
    assert.deepEqual(tierOf("Sessions/2026-11-18.md"), { tier: "warm", layout: "session" });
    assert.deepEqual(tierOf("REFERENCE/Storage.md"), { tier: "warm", layout: "reference" });
  });

  test("leading './' and doubled slashes do not change the answer", () => {
    assert.deepEqual(tierOf("./state.md"), { tier: "hot", layout: "state" });
    assert.deepEqual(tierOf("sessions//2026-11-18.md"), { tier: "warm", layout: "session" });
    assert.deepEqual(tierOf("./archive/x.md"), { tier: "cold", layout: "archive" });
  });

  test("users/<id>/profile.md is a user's profile: hot, its own layout, kind preference, the user's id", () => {
    assert.deepEqual(tierOf("users/alice/profile.md"), { tier: "hot", layout: "profile", kind: "preference", user: "alice" });
    assert.deepEqual(tierOf("users/bob/profile.mdx"), { tier: "hot", layout: "profile", kind: "preference", user: "bob" });
    assert.deepEqual(tierOf("memory/users/carol/profile.md"), { tier: "hot", layout: "profile", kind: "preference", user: "carol" });
  });

  test("a profile's directory name is read as a user id is written (lower case, other characters one dash)", () => {
    assert.equal(tierOf("Users/Bob Smith/Profile.md").user, "bob-smith");
    assert.equal(tierOf("users/Jöhn/profile.md").user, "john");
  });

  test("not a profile: no user directory, a deeper file, another name, or under archive/", () => {
    assert.deepEqual(tierOf("users/profile.md"), { tier: "warm", layout: "note" });
    assert.deepEqual(tierOf("profile.md"), { tier: "warm", layout: "note" });
    assert.deepEqual(tierOf("users/alice/notes/profile.md"), { tier: "warm", layout: "note" });
    assert.deepEqual(tierOf("users/alice/todo.md"), { tier: "warm", layout: "note" });
    assert.deepEqual(tierOf("users/---/profile.md"), { tier: "warm", layout: "note" }, "a directory name with no letter or digit names no user");
    assert.deepEqual(tierOf("archive/users/alice/profile.md"), { tier: "cold", layout: "archive" });
  });
});
