package exportgen

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
)

// writeGzip writes data gzipped to p and returns its MD5, as
// manifest-files.json lists it.
func writeGzip(p string, data []byte) (dataFile, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed) // level is valid
	if _, err := zw.Write(data); err != nil {
		return dataFile{}, err
	}
	if err := zw.Close(); err != nil {
		return dataFile{}, err
	}
	d := dataFile{md5: md5.Sum(buf.Bytes())}
	return d, os.WriteFile(p, buf.Bytes(), 0o644)
}

// writeManifestFiles writes manifest-files.json for files, then the
// summary with the MD5 of manifest-files.json.
func writeManifestFiles(exp string, files []dataFile, sum map[string]any) error {
	var mf bytes.Buffer
	enc := json.NewEncoder(&mf)
	for _, f := range files {
		line := struct {
			ItemCount     int64  `json:"itemCount"`
			Md5Checksum   string `json:"md5Checksum"`
			Etag          string `json:"etag"`
			DataFileS3Key string `json:"dataFileS3Key"`
		}{f.items, base64.StdEncoding.EncodeToString(f.md5[:]), hex.EncodeToString(f.md5[:]), f.key}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(exp, "manifest-files.json"), mf.Bytes(), 0o644); err != nil {
		return err
	}
	mfSum := md5.Sum(mf.Bytes())
	sum["manifestFilesMd5Checksum"] = base64.StdEncoding.EncodeToString(mfSum[:])
	data, err := json.Marshal(sum) // map keys sorted: deterministic
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(exp, "manifest-summary.json"), append(data, '\n'), 0o644)
}
