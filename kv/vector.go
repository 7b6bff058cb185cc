package kv

import (
	"encoding/binary"
	"fmt"
	"math"
)

// bucketVectors holds one embedding per fact (id -> sealed float32s), for
// the semantic lookup. Files made before it existed gain it at a writable
// Open; until then it reads as empty.
var bucketVectors = []byte("vectors")

// PutVector stores the embedding of fact id.
func (t *Tx) PutVector(id uint64, v []float32) error {
	if t.scope.on && t.users.Get(userKey(t.scope.user, id)) == nil {
		// Not the scope's user's fact (or none yet): the vector cannot
		// be told from another user's.
		if r, err := t.Get(id); err == nil {
			t.factInScope(id, r.User)
		} else if t.scope.err == nil {
			t.scope.err = fmt.Errorf("%w: the write for user %q stored the embedding of fact %d, which is no fact of theirs", ErrOtherUser, t.scope.user, id)
		}
	}
	b, err := t.sp.createBucket(bucketVectors)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, 4*len(v)+4)
	for _, x := range v {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
	}
	return b.Put(idKey(id), sealed(buf, 0))
}

// Vector returns the embedding of fact id, or nil if it has none.
func (t *Tx) Vector(id uint64) ([]float32, error) {
	b := t.sp.bucket(bucketVectors)
	if b == nil {
		return nil, nil
	}
	raw := b.Get(idKey(id))
	if raw == nil {
		return nil, nil
	}
	body, err := unseal(raw)
	if err != nil || len(body)%4 != 0 {
		return nil, fmt.Errorf("%w: vector of fact %d", ErrDecode, id)
	}
	v := make([]float32, len(body)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(body[4*i:]))
	}
	return v, nil
}

// VectorDim is the number of values of the first embedding stored, 0 when
// none is: the store keeps vectors of one dimension.
func (t *Tx) VectorDim() (int, error) {
	if t.perUser {
		// The store's dimension: any user's first vector.
		dim := 0
		err := t.EachUser(func(string) error {
			if dim == 0 {
				var err error
				dim, err = t.vectorDim()
				return err
			}
			return nil
		})
		return dim, err
	}
	return t.vectorDim()
}

func (t *Tx) vectorDim() (int, error) {
	b := t.sp.bucket(bucketVectors)
	if b == nil {
		return 0, nil
	}
	k, raw := b.Cursor().First()
	if k == nil {
		return 0, nil
	}
	body, err := unseal(raw)
	if err != nil || len(body)%4 != 0 {
		return 0, fmt.Errorf("%w: the first vector stored", ErrDecode)
	}
	return len(body) / 4, nil
}

func (t *Tx) deleteVector(id uint64) error {
	if b := t.sp.bucket(bucketVectors); b != nil {
		return b.Delete(idKey(id))
	}
	return nil
}
