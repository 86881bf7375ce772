// Makes the page's memory snapshot off the main thread (see snapshot.js, which starts
// this worker and sends its own URL: the two are named by their content, so neither
// can hold the other's name).
onmessage = async ({ data: loader }) => {
  try {
    const { makeSnapshot } = await import(loader);
    postMessage(await makeSnapshot());
  } catch (error) {
    postMessage(String(error));
  }
};
